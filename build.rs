//! Build script: packs the relative relocations of release binaries on
//! GNU/Linux (`-z pack-relative-relocs`, DT_RELR).
//!
//! The production binary is position-independent (so the loader can place
//! it at a random address), and every pointer in its data needs a
//! relocation: as plain `Elf64_Rela` entries they took 0.5 MiB of the
//! stripped binary, packed they take a few kilobytes. GNU ld 2.38 and later
//! packs them; glibc 2.36 and later (Debian bookworm, the Dockerfile's
//! runtime image) loads them, and refuses such a binary cleanly on an older
//! glibc (it names the `GLIBC_ABI_DT_RELR` version it needs). Debug builds
//! and other targets link as before.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let env = |k: &str| std::env::var(k).unwrap_or_default();
    if env("PROFILE") == "release"
        && env("CARGO_CFG_TARGET_OS") == "linux"
        && env("CARGO_CFG_TARGET_ENV") == "gnu"
    {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}
