#!/usr/bin/env python3
"""Memory soak for a running `payrelay dev`: creates and pays N payments through the API and the
sandbox (every one a real signed callback, PaymentCreated + PaymentConfirmed delivered, courses
granted) and prints the payrelay JVM's resident set size (VmRSS from /proc) every `--every`
payments, so a per-payment leak shows as a rising line. Loopback only; bounded in count.

Usage: deploy/local/rss-soak.py --pid <payrelay java pid> [--payments 10000] [--every 1000]
       [--threads 8] [--api http://127.0.0.1:8080] [--sandbox http://127.0.0.1:8090]
"""
import argparse
import json
import time
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor


def post(url, body):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read() or b"{}")


def one(args, i):
    created = post(args.api + "/v1/payments", {
        "tenantId": "soak", "orderId": "soak-%d-%s" % (i, uuid.uuid4().hex[:8]),
        "userId": "u-%d" % i, "amountMinor": 1000 + i % 500, "currency": "USD",
        "courseIds": ["c-%d" % (i % 7)], "channel": "sandbox"})
    pid = created["payment"]["paymentId"]
    post(args.sandbox + "/sandbox/v1/payments/%s/pay" % pid, {})


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS for pid %d" % pid)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--pid", type=int, required=True)
    p.add_argument("--payments", type=int, default=10000)
    p.add_argument("--every", type=int, default=1000)
    p.add_argument("--threads", type=int, default=8)
    p.add_argument("--api", default="http://127.0.0.1:8080")
    p.add_argument("--sandbox", default="http://127.0.0.1:8090")
    args = p.parse_args()
    start = time.time()
    print("payments  rss_MiB  elapsed_s")
    print("%8d  %7.1f  %9.1f" % (0, rss_kib(args.pid) / 1024, 0), flush=True)
    done = 0
    with ThreadPoolExecutor(args.threads) as pool:
        while done < args.payments:
            batch = min(args.every, args.payments - done)
            list(pool.map(lambda i: one(args, i), range(done, done + batch)))
            done += batch
            print("%8d  %7.1f  %9.1f" % (done, rss_kib(args.pid) / 1024, time.time() - start),
                  flush=True)


if __name__ == "__main__":
    main()
