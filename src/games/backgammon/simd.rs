//! The network's inner loops: AVX2 and FMA kernels on x86-64 processors that have them
//! (detected once at run time), and a portable version everywhere else.
//!
//! Both add the same terms in the same order, eight lanes at a time and then the lanes in a
//! fixed order, so they differ only where FMA rounds once instead of twice.

/// Eight lanes, the width of an AVX register of `f32`.
const LANES: usize = 8;

/// Whether the AVX2 and FMA kernels run here.
fn fast() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        static FAST: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *FAST.get_or_init(|| {
            std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Adds `v` times row `i` of `w` (rows of `acc.len()` weights) to `acc` for every active
/// input `(i, v)`.
pub fn add_rows(acc: &mut [f32], w: &[f32], x: &[(usize, f32)]) {
    #[cfg(target_arch = "x86_64")]
    if fast() {
        // SAFETY: the processor has AVX2 and FMA (checked above).
        unsafe { avx2::add_rows(acc, w, x) };
        return;
    }
    portable::add_rows(acc, w, x);
}

/// The dot product of two equally long slices.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if fast() {
        // SAFETY: the processor has AVX2 and FMA (checked above).
        return unsafe { avx2::dot(a, b) };
    }
    portable::dot(a, b)
}

/// The lanes' sum, pairwise in a fixed order shared by both versions.
fn sum_lanes(l: [f32; LANES]) -> f32 {
    ((l[0] + l[4]) + (l[2] + l[6])) + ((l[1] + l[5]) + (l[3] + l[7]))
}

/// Plain Rust in eight independent lanes (which compilers turn into vector code too).
pub mod portable {
    use super::{sum_lanes, LANES};

    /// [`super::add_rows`] without special instructions.
    pub fn add_rows(acc: &mut [f32], w: &[f32], x: &[(usize, f32)]) {
        let h = acc.len();
        for &(i, v) in x {
            let row = &w[i * h..(i + 1) * h];
            if v == 1.0 {
                acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
            } else {
                acc.iter_mut().zip(row).for_each(|(a, w)| *a += w * v);
            }
        }
    }

    /// [`super::dot`] without special instructions.
    pub fn dot(a: &[f32], b: &[f32]) -> f32 {
        let mut lanes = [0f32; LANES];
        let split = a.len() / LANES * LANES;
        for (ca, cb) in a[..split]
            .chunks_exact(LANES)
            .zip(b[..split].chunks_exact(LANES))
        {
            for k in 0..LANES {
                lanes[k] += ca[k] * cb[k];
            }
        }
        let tail: f32 = a[split..].iter().zip(&b[split..]).map(|(x, y)| x * y).sum();
        sum_lanes(lanes) + tail
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{sum_lanes, LANES};
    use std::arch::x86_64::*;

    /// [`super::add_rows`] with AVX2 and FMA.
    ///
    /// # Safety
    /// The processor must have AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn add_rows(acc: &mut [f32], w: &[f32], x: &[(usize, f32)]) {
        let h = acc.len();
        let split = h / LANES * LANES;
        for &(i, v) in x {
            let row = &w[i * h..(i + 1) * h];
            if v == 1.0 {
                for j in (0..split).step_by(LANES) {
                    // SAFETY: j + LANES <= split <= h, the length of `acc` and `row`.
                    unsafe {
                        let a = _mm256_loadu_ps(acc.as_ptr().add(j));
                        let r = _mm256_loadu_ps(row.as_ptr().add(j));
                        _mm256_storeu_ps(acc.as_mut_ptr().add(j), _mm256_add_ps(a, r));
                    }
                }
                for j in split..h {
                    acc[j] += row[j];
                }
            } else {
                let scale = _mm256_set1_ps(v);
                for j in (0..split).step_by(LANES) {
                    // SAFETY: as above.
                    unsafe {
                        let a = _mm256_loadu_ps(acc.as_ptr().add(j));
                        let r = _mm256_loadu_ps(row.as_ptr().add(j));
                        let sum = _mm256_fmadd_ps(r, scale, a);
                        _mm256_storeu_ps(acc.as_mut_ptr().add(j), sum);
                    }
                }
                for j in split..h {
                    acc[j] += row[j] * v;
                }
            }
        }
    }

    /// [`super::dot`] with AVX2 and FMA.
    ///
    /// # Safety
    /// The processor must have AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn dot(a: &[f32], b: &[f32]) -> f32 {
        let split = a.len().min(b.len()) / LANES * LANES;
        let mut sum = _mm256_setzero_ps();
        for j in (0..split).step_by(LANES) {
            // SAFETY: j + LANES <= split, within both slices.
            unsafe {
                let x = _mm256_loadu_ps(a.as_ptr().add(j));
                let y = _mm256_loadu_ps(b.as_ptr().add(j));
                sum = _mm256_fmadd_ps(x, y, sum);
            }
        }
        let mut lanes = [0f32; LANES];
        // SAFETY: `lanes` holds LANES floats.
        unsafe { _mm256_storeu_ps(lanes.as_mut_ptr(), sum) };
        let tail: f32 = a[split..].iter().zip(&b[split..]).map(|(x, y)| x * y).sum();
        sum_lanes(lanes) + tail
    }
}

#[cfg(test)]
mod tests {
    use super::super::features::{encode, INPUTS};
    use super::super::{nn, Backgammon, Options};
    use super::*;
    use crate::game::{Dice, Game};
    use crate::util::rng::Rng;

    /// The shipped network's hidden sums and output sums at `x`, by both kernel sets.
    fn sums(x: &[(usize, f32)], kernels: bool) -> Vec<f32> {
        let (h, w1, w2) = nn::shipped().weights();
        let mut acc = w1[INPUTS * h..(INPUTS + 1) * h].to_vec();
        if kernels {
            add_rows(&mut acc, w1, x);
        } else {
            portable::add_rows(&mut acc, w1, x);
        }
        let hidden: Vec<f32> = acc.iter().map(|a| 1.0 / (1.0 + (-a).exp())).collect();
        let outputs = w2.chunks_exact(h + 1).map(|row| {
            if kernels {
                dot(&hidden, &row[..h])
            } else {
                portable::dot(&hidden, &row[..h])
            }
        });
        acc.iter().copied().chain(outputs).collect()
    }

    #[test]
    fn kernels_agree_with_the_portable_code_on_random_positions() {
        let mut rng = Rng::new(3);
        let (mut x, mut moves, mut events) = (Vec::new(), Vec::new(), Vec::new());
        let mut compared = 0;
        for _ in 0..20 {
            let mut pos = Backgammon::start(&Options::default());
            while pos.outcome().is_none() {
                events.clear();
                pos.chance_events(&mut events);
                pos.apply_chance(events[rng.below(events.len() as u64) as usize].event);
                moves.clear();
                pos.legal_moves(&mut moves);
                pos.play(moves[rng.below(moves.len() as u64) as usize]);
                encode(&pos, &mut x);
                for (fast, plain) in sums(&x, true).into_iter().zip(sums(&x, false)) {
                    let tolerance = 1e-5 * (1.0 + plain.abs());
                    assert!((fast - plain).abs() <= tolerance, "{fast} vs {plain}");
                }
                compared += 1;
            }
        }
        assert!(compared > 1000, "only {compared} positions");
        println!("AVX2 and FMA kernels in use: {}", fast());
    }
}
