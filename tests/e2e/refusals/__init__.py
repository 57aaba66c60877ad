"""Every refusal explains itself in an ephemeral reply and changes nothing (one bot process for
the package; every test has its own channel and members)."""
