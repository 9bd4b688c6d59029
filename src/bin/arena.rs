//! `arena`: plays a match between two protocol engines and prints the results.
//! See `docs/arena.md`; the logic is in [`tabula::arena`].

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `exit` prints `--help` on stdout with status 0, a bad command line on stderr with 2.
    let config = tabula::arena::parse_args(&args).unwrap_or_else(|error| error.exit());
    let stdout = std::io::stdout();
    if let Err(message) = tabula::arena::run(&config, &mut stdout.lock()) {
        eprintln!("arena: {message}");
        std::process::exit(1);
    }
}
