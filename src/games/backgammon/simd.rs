//! The network's inner loops: AVX2 and FMA kernels on x86-64 processors that have them
//! (detected once at run time), and a portable version everywhere else.
//!
//! Both add the same terms in the same order, eight lanes at a time and then the lanes in a
//! fixed order, so they differ only where FMA rounds once instead of twice.

/// Eight lanes, the width of an AVX register of `f32`.
const LANES: usize = 8;

/// Whether the AVX2 and FMA kernels run here.
#[cfg(target_arch = "x86_64")]
fn fast() -> bool {
    static FAST: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *FAST.get_or_init(|| {
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
    })
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

/// Replaces every value `a` by the logistic sigmoid `1 / (1 + e^-a)`.
pub fn sigmoid_all(v: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if fast() {
        // SAFETY: the processor has AVX2 and FMA (checked above).
        unsafe { avx2::sigmoid_all(v) };
        return;
    }
    portable::sigmoid_all(v);
}

/// The logistic sigmoid of one value, with the standard library's `exp`.
pub fn sigmoid(a: f32) -> f32 {
    1.0 / (1.0 + (-a).exp())
}

/// The lanes' sum, pairwise in a fixed order shared by both versions.
fn sum_lanes(l: [f32; LANES]) -> f32 {
    ((l[0] + l[4]) + (l[2] + l[6])) + ((l[1] + l[5]) + (l[3] + l[7]))
}

/// Plain Rust in eight independent lanes (which compilers turn into vector code too).
pub mod portable {
    use super::{sigmoid, sum_lanes, LANES};

    /// [`super::sigmoid_all`] with the standard library's `exp`.
    pub fn sigmoid_all(v: &mut [f32]) {
        v.iter_mut().for_each(|a| *a = sigmoid(*a));
    }

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
    use super::{sigmoid, sum_lanes, LANES};
    use std::arch::x86_64::*;

    /// [`super::sigmoid_all`] with AVX2 and FMA: eight at a time with [`exp`].
    ///
    /// # Safety
    /// The processor must have AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn sigmoid_all(v: &mut [f32]) {
        let split = v.len() / LANES * LANES;
        let one = _mm256_set1_ps(1.0);
        for j in (0..split).step_by(LANES) {
            // SAFETY: j + LANES <= split <= v.len().
            unsafe {
                let a = _mm256_loadu_ps(v.as_ptr().add(j));
                let e = exp(_mm256_sub_ps(_mm256_setzero_ps(), a));
                let s = _mm256_div_ps(one, _mm256_add_ps(one, e));
                _mm256_storeu_ps(v.as_mut_ptr().add(j), s);
            }
        }
        v[split..].iter_mut().for_each(|a| *a = sigmoid(*a));
    }

    /// `e^x` in eight lanes to about one unit in the last place, after Cephes' `expf`:
    /// `x = n ln 2 + r` with `|r| <= ln 2 / 2`, `e^r` by its Taylor polynomial's fitted
    /// coefficients, `2^n` put straight into the exponent bits. `x` is clamped to where
    /// `e^x` is a normal float, which moves a sigmoid by less than 1e-38.
    #[target_feature(enable = "avx2,fma")]
    fn exp(x: __m256) -> __m256 {
        let set = _mm256_set1_ps;
        let x = _mm256_min_ps(_mm256_max_ps(x, set(-87.3)), set(88.3));
        let n = _mm256_round_ps::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(
            _mm256_mul_ps(x, set(std::f32::consts::LOG2_E)),
        );
        // ln 2 in two parts, so that n times the first is exact.
        let r = _mm256_fnmadd_ps(n, set(0.693_359_4), x);
        let r = _mm256_fnmadd_ps(n, set(-2.121_944_4e-4), r);
        let mut p = set(1.987_569_1e-4);
        for c in [1.398_2e-3, 8.333_452e-3, 4.166_579_6e-2, 0.166_666_65, 0.5] {
            p = _mm256_fmadd_ps(p, r, set(c));
        }
        let p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, set(1.0)));
        let biased = _mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127));
        _mm256_mul_ps(p, _mm256_castsi256_ps(_mm256_slli_epi32::<23>(biased)))
    }

    /// [`super::add_rows`] with AVX2 and FMA: 64 columns at a time stay in eight registers
    /// while every active row is added, then the columns left one row at a time.
    ///
    /// # Safety
    /// The processor must have AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub unsafe fn add_rows(acc: &mut [f32], w: &[f32], x: &[(usize, f32)]) {
        const REGS: usize = 8;
        const BLOCK: usize = REGS * LANES;
        let h = acc.len();
        let blocks = h / BLOCK * BLOCK;
        for start in (0..blocks).step_by(BLOCK) {
            let mut sum = [_mm256_setzero_ps(); REGS];
            for (k, s) in sum.iter_mut().enumerate() {
                // SAFETY: start + BLOCK <= h, the length of `acc`.
                *s = unsafe { _mm256_loadu_ps(acc.as_ptr().add(start + k * LANES)) };
            }
            for &(i, v) in x {
                let row = &w[i * h + start..i * h + start + BLOCK];
                let scale = _mm256_set1_ps(v);
                for (k, s) in sum.iter_mut().enumerate() {
                    // SAFETY: `row` holds BLOCK floats.
                    let r = unsafe { _mm256_loadu_ps(row.as_ptr().add(k * LANES)) };
                    *s = if v == 1.0 {
                        _mm256_add_ps(*s, r)
                    } else {
                        _mm256_fmadd_ps(r, scale, *s)
                    };
                }
            }
            for (k, s) in sum.iter().enumerate() {
                // SAFETY: as above.
                unsafe { _mm256_storeu_ps(acc.as_mut_ptr().add(start + k * LANES), *s) };
            }
        }
        for &(i, v) in x {
            let row = &w[i * h..(i + 1) * h];
            for j in blocks..h {
                acc[j] += if v == 1.0 { row[j] } else { row[j] * v };
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

    /// The shipped network's hidden sums, hidden units and output sums at `x`, by the kernels
    /// (`true`) or the portable code.
    fn sums(x: &[(usize, f32)], kernels: bool) -> Vec<f32> {
        let (h, w1, w2) = nn::shipped().weights();
        let mut acc = w1[INPUTS * h..(INPUTS + 1) * h].to_vec();
        if kernels {
            add_rows(&mut acc, w1, x);
        } else {
            portable::add_rows(&mut acc, w1, x);
        }
        let mut hidden = acc.clone();
        if kernels {
            sigmoid_all(&mut hidden);
        } else {
            portable::sigmoid_all(&mut hidden);
        }
        let outputs = w2.chunks_exact(h + 1).map(|row| {
            if kernels {
                dot(&hidden, &row[..h])
            } else {
                portable::dot(&hidden, &row[..h])
            }
        });
        acc.iter().chain(&hidden).copied().chain(outputs).collect()
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
        #[cfg(target_arch = "x86_64")]
        println!("AVX2 and FMA kernels in use: {}", fast());
    }
}
