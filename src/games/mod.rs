//! One module per game; each implements [`crate::game::Game`].
pub mod backgammon;
pub mod bombardment;
pub mod breakthrough;
pub mod cascades;
pub mod gipf;
pub mod morris;
pub mod nim;
