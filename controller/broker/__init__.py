"""The MQTT broker the night runs on.

- :mod:`.local`: a broker on this computer for the demo and the tests (Mosquitto where
  it is installed, otherwise the embedded amqtt);
- :mod:`.accounts`: a locked-down Mosquitto: the accounts, their passwords (Mosquitto's
  PBKDF2 format, also used for the console's password) and the ACL
  (``floorman broker-config``).
"""
