"""Table devices: pure decoders (bytes -> events), host rules, reader threads and simulators.

See ``docs/protocols.md`` for the wire protocols. Decoders never touch the database or sockets;
readers own the ports and hand raw bytes, events and health to a sink (``devices.sink``).
"""
