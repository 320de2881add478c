"""What both sides of the wire speak: the only part of the controller a screen imports
besides the engine's pure value types.

- :mod:`.protocol`: the topics and the message schemas (docs/protocol.md);
- :mod:`.topics`: the topic names and a payload's bytes alone, without the schemas (what
  the director's command line imports: pydantic and the engine's models are not needed to
  send a command);
- :mod:`.mqtt`: the broker's address and a paho client made the same way everywhere;
- :mod:`.wording`: the controller's reasons and phrases in the screen's language;
- :mod:`.i18n`: every word the screens and the console show, in German and English, and
  how numbers, clock times and names are written and sorted.

Pure Python but for paho in :mod:`.mqtt`; no pygame, no web framework.
"""
