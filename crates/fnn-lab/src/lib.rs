//! The network lab: rehearse a design on Linux network namespaces
//! (bridges for switches, veths for cables, the exported scripts run as
//! they would on the cluster), measure it, and verify a cabled cluster
//! against its design (LLDP neighbours, systemd-networkd files).

pub mod emulate;
pub mod verify;
