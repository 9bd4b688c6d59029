//! One module per game; each implements [`crate::game::Game`].
pub mod bombardment;
pub mod morris;
