//! Exact distributions of dice expressions (filled in below).
