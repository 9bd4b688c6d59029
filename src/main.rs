//! The `tabula` binary: the protocol on stdin/stdout; logs on stderr (RUST_LOG=info).

fn main() {
    env_logger::init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = tabula::protocol::run(
        std::io::BufReader::new(std::io::stdin()),
        std::io::stdout(),
        &args,
    );
    std::process::exit(code);
}
