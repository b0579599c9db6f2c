"""Stage 3: the rules, one folder per dimension (time, ratio, rate, names, setup,
record, talk); rules shared by two dimensions (alternatives, labels) sit here."""
