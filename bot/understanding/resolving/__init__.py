"""Stage 4: typed candidates and the one resolver that chooses between them."""
