"""Who sent a request: the client's address behind the reverse proxies this site trusts (TRUSTED_PROXIES).

No Django here: settings.py parses the setting with it. The same proxies are gunicorn's FORWARDED_ALLOW_IPS, from
which alone it believes X-Forwarded-Proto (deploy/gunicorn.env).
"""

from __future__ import annotations

import ipaddress

# This machine: a reverse proxy (nginx, Caddy) on the same host, over loopback.
DEFAULT_TRUSTED_PROXIES = "127.0.0.0/8,::1"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(text: str) -> list[Network]:
    """ "127.0.0.1, 10.0.0.0/8, ::1" → networks (an address is a network of one); ValueError names a bad entry."""
    networks = []
    for item in (part.strip() for part in text.split(",")):
        if item:
            try:
                networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                raise ValueError(f"{item!r} is neither an IP address nor a network (CIDR)") from None
    return networks


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        ip = ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None
    if ip.version == 6 and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def client_address(meta: dict, trusted_proxies: list) -> str:
    """The client's address, as the rate limit counts it.

    The connecting address (REMOTE_ADDR), unless it is a trusted proxy: then the address that proxy saw, the last
    entry of X-Forwarded-For, and so on leftwards while the address reached is a trusted proxy too. What lies left
    of the first untrusted address was written by the client and is ignored, so a client that connects directly
    cannot choose its address. A connection without an IP address (a Unix socket) counts as a trusted proxy, as
    servers treat it. IPv6 clients are counted by their /64 (one household or phone gets a whole /64).
    """
    remote = meta.get("REMOTE_ADDR", "") or ""
    ip = _ip(remote)
    forwarded = [part for part in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    while forwarded and (ip is None or any(ip in network for network in trusted_proxies)):
        previous = _ip(forwarded.pop())
        if previous is None:  # not an address: no proxy of ours wrote it; stop at the last one that did
            break
        ip = previous
    if ip is None:
        return remote[:64] or "unknown"
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)
