//! fnn-tui: design Flat Neighborhood Networks (Dietz and Mattox, KLAT2).
//!
//! The core (spec, design, GA, evaluation, reports) lives here and never
//! imports a terminal library; the binary's front ends are thin layers over it.

pub mod atomic;
pub mod design;
pub mod ga;
pub mod patterns;
pub mod report;
pub mod session;
pub mod spec;
