"""The solver feature: "What can I play?", ``POST /api/v1/solve``, and the arrangement partial."""
