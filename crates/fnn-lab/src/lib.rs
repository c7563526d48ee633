//! The network lab: rehearse a design on Linux network namespaces
//! (bridges for switches, veths for cables, the exported scripts run as
//! they would on the cluster), measure it, and verify a cabled cluster
//! against its design (LLDP neighbours, systemd-networkd files).

// The modules below it under their own names, so a path reads the same
// whichever crate it is written in.
#[cfg(test)]
use fnn_core::fixtures;
use fnn_core::{atomic, design, escape, fs, input, spec, svg, words};
use fnn_export::{bandwidth, export, routing, topology};

pub mod emulate;
pub mod verify;
