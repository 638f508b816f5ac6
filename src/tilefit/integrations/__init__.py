"""Drop-in hooks for other tools (triton.autotune, Helion); nothing in tilefit imports these."""
