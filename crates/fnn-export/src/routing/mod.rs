//! Routing for an FNN (the FNN compiler paper "Basic Routing Tables" and "Advanced
//! Routing Tables", the KLAT2 paper §4-5): one path per PC pair chosen to balance
//! NIC use, the addresses and neighbour tables that let every PC reach every
//! other without a broadcast, and the NIC tuples of advanced routing.

pub mod addresses;
pub mod advanced;
pub mod basic;
mod digits;
pub mod macs;
pub mod networkd;
pub mod probe;
pub mod scripts;
pub mod tools;

pub use addresses::{Interfaces, interface_number, multipath_ip, switch_ip, uplink_ip};
pub use basic::BasicRouting;
pub use digits::whole_number;
pub use macs::MacTable;
