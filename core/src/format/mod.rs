//! `database.json`: reading and writing it byte for byte as the seed's CLI does, and checking a
//! file for every broken invariant with the same checks a load makes.

mod invariants;
pub(crate) mod persistence;
mod stored;
mod validate;
