//! `arena`: plays a match between two protocol engines and prints the results;
//! `arena merge FILE...` combines the results files of a match's shards.
//! See `docs/arena.md`; the logic is in [`tabula::arena`].

use tabula::arena::merge;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdout = std::io::stdout();
    if args.first().map(String::as_str) == Some("merge") {
        let merge_args = merge::parse(&args[1..]).unwrap_or_else(|error| error.exit());
        if let Err(message) = merge::run(&merge_args, &mut stdout.lock(), &mut std::io::stderr()) {
            eprintln!("arena merge: {message}");
            std::process::exit(1);
        }
        return;
    }
    // `exit` prints `--help` on stdout with status 0, a bad command line on stderr with 2.
    let config = tabula::arena::parse_args(&args).unwrap_or_else(|error| error.exit());
    if let Err(message) = tabula::arena::run(&config, &mut stdout.lock()) {
        eprintln!("arena: {message}");
        std::process::exit(1);
    }
}
