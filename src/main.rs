//! The `tabula` binary: the protocol on stdin/stdout; logs on stderr (RUST_LOG=info).

fn main() {
    env_logger::init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag] = args.as_slice() {
        if flag == "--help" || flag == "-h" {
            println!(
                "usage: tabula [GAME [key=value ...]]\n\
                 Speaks the engine protocol on stdin/stdout (protocol.md); `help` there lists \
                 the commands.\nGames: {}.",
                tabula::registry::GAMES
                    .iter()
                    .map(|entry| entry.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            return;
        }
        if flag == "--version" || flag == "-V" {
            println!("tabula {}", env!("CARGO_PKG_VERSION"));
            return;
        }
    }
    let code = tabula::protocol::run(
        std::io::BufReader::new(std::io::stdin()),
        std::io::stdout(),
        &args,
    );
    std::process::exit(code);
}
