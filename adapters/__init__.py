"""Platform adapters: they translate platform events to neutral ones and render views."""
