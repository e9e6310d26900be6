#!/usr/bin/env python3
"""flows-server under wrk on loopback, beside a bare Hummingbird route, in one run.

    server-wrk.py SERVER_URL BARE_URL SEED_DIR SECONDS CONNECTIONS

SEED_DIR holds what `server-bench seed` wrote: `token` (Ada's session: 1,000 friends),
`friend-token` (a friend of hers: one balance) and `adds.lua`. Runs, one after the other, each
for SECONDS at CONNECTIONS connections (two wrk threads):
  1. GET / on the bare route (a constant): the ceiling;
     and GET /large on it (a constant the size of Ada's balances): the ceiling for her answer;
  2. GET /health on flows-server: its HTTP path and middlewares, no database;
  3. GET /balances as the friend: a session check and a one-row query, a small answer;
  4. GET /balances as Ada: the same with her 1,000 balances, as a client that takes no
     compression; and again as the CLI asks (URLSession's `Accept-Encoding: deflate, gzip, br,
     zstd`), which gets it in gzip;
  5. POST /expenses as Ada (adds.lua: wrk's two threads half the friends apart), after 5 s of
     the same not measured: a fresh server's first connections and sessions.
Prints requests per second and latency percentiles for each, Ada's balances as a share of the
bare route's rate, and the targets beside them. Prints figures; asserts nothing (Scripts/bench).
"""

import re
import subprocess
import sys

UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def milliseconds(text):
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    if not match:
        raise ValueError(f"not a wrk duration: {text}")
    return float(match.group(1)) * UNITS[match.group(2)]


def run_wrk(label, url, seconds, connections, extra):
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "5s", *extra, url]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    total = int(re.search(r"(\d+) requests in", output).group(1))
    percentiles = {p: milliseconds(value) for p, value in re.findall(r"^\s+(50|90|99)%\s+(\S+)\s*$", output, re.MULTILINE)}
    refused = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    refused = int(refused.group(1)) if refused else 0
    errors = re.search(r"Socket errors: (.*)$", output, re.MULTILINE)
    size = re.search(r"([\d.]+\w+) read", output)
    print(
        f"  {label}: {rate:,.0f} requests/s ({total:,} in {seconds} s, {size.group(1) if size else '?'} read); "
        f"latency p50 {percentiles['50']:.2f} ms, p90 {percentiles['90']:.2f} ms, p99 {percentiles['99']:.2f} ms"
        + (f"; {refused} answers not 2xx" if refused else "")
        + (f"; socket errors: {errors.group(1)}" if errors else "")
    )
    return rate, percentiles["99"], refused, total


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    server, bare, seed, seconds, connections = sys.argv[1:]

    def bearer(name):
        return ["-H", f"Authorization: Bearer {open(f'{seed}/{name}').read().strip()}"]

    constant, _, _, _ = run_wrk("GET / (bare Hummingbird route, a constant)", f"{bare}/", seconds, connections, [])
    large, _, _, _ = run_wrk("GET /large (bare route, a constant of 97,000 bytes)", f"{bare}/large", seconds, connections, [])
    run_wrk("GET /health (flows-server, no database)", f"{server}/health", seconds, connections, [])
    run_wrk("GET /balances (flows-server, a user with 1 balance)", f"{server}/balances", seconds, connections, bearer("friend-token"))
    balances, balances_p99, balances_refused, _ = run_wrk(
        "GET /balances (flows-server, Ada: 1,000 balances)", f"{server}/balances", seconds, connections, bearer("token")
    )
    gzipped, gzipped_p99, gzipped_refused, _ = run_wrk(
        "GET /balances (flows-server, Ada, Accept-Encoding as the CLI sends it: gzip)", f"{server}/balances", seconds, connections,
        bearer("token") + ["-H", "Accept-Encoding: deflate, gzip, br, zstd"],
    )
    run_wrk("POST /expenses, warming up (not measured)", server, 5, connections, ["-s", f"{seed}/adds.lua"])
    _, adds_p99, adds_refused, adds_total = run_wrk(
        "POST /expenses (flows-server, Ada with each friend in turn)", server, seconds, connections, ["-s", f"{seed}/adds.lua"]
    )
    added = (adds_total - adds_refused) / float(seconds)

    print(
        f"Ada's balances at {connections} connections: {100 * balances / constant:.1f}% of the bare route's rate "
        f"(target: at least 50%), p99 {balances_p99:.2f} ms (target: under 10 ms); "
        f"the bare route answering a constant of her answer's size runs at {100 * large / constant:.1f}%"
        + (f"; {balances_refused} refused" if balances_refused else "")
    )
    print(
        f"Ada's balances in gzip (as the CLI asks) at {connections} connections: {100 * gzipped / constant:.1f}% of the bare "
        f"route's rate (target: at least 50%), p99 {gzipped_p99:.2f} ms (target: under 10 ms)"
        + (f"; {gzipped_refused} refused" if gzipped_refused else "")
    )
    print(
        f"Expenses added over HTTP at {connections} connections: {added:,.0f} per second, p99 {adds_p99:.2f} ms "
        f"(target: at least 2,000 per second)" + (f"; {adds_refused} refused" if adds_refused else "")
    )


if __name__ == "__main__":
    main()
