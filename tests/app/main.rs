//! Tests at the application layer: actions driven directly, with no HTTP,
//! no fake Discord and no poise, on a fresh SQLite database per test. They
//! assert the `Response` an action returns and the rows it logs; the
//! end-to-end suite (`tests/e2e`) stays for the adapter.

mod approval;
mod approve_once;
mod common;
mod dice;
mod ore;
mod ore_combat;
mod sheets;
mod storyteller;
mod table;
mod undo;
mod venus;
mod veracity;
