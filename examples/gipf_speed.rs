use tabula::game::Game;
use tabula::games::gipf::{Gipf, Options};
fn main() {
    let p = Gipf::start(&Options::default());
    for _ in 0..3 {
        let t = std::time::Instant::now();
        let n = p.perft(4);
        let s = t.elapsed().as_secs_f64();
        println!("perft 4 = {n} in {s:.3}s = {:.0} leaves/s", n as f64 / s);
    }
}
