//! `arena`: plays a match between two protocol engines and prints the results.
//! See `docs/arena.md`; the logic is in [`tabula::arena`].

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config = match tabula::arena::parse_args(&args) {
        Ok(config) => config,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(2);
        }
    };
    let stdout = std::io::stdout();
    if let Err(message) = tabula::arena::run(&config, &mut stdout.lock()) {
        eprintln!("arena: {message}");
        std::process::exit(1);
    }
}
