//! Scenarios of the standard and tournament games: GIPF-pieces, their choices, the game end.
