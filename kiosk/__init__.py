"""Floorman kiosk: the table screens, the wall screen and the dealer's button box."""
