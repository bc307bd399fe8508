"""Game-independent seeing: markers, registration, calibration, card finding, stability."""
