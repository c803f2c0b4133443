// Implementation lands with the foundation issue.
