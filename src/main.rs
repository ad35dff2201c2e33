//! The `kismet` binary: a thin command-line front over the library.

fn main() {
    println!("kismet");
}
