//! The guarded network core of webgrip.
