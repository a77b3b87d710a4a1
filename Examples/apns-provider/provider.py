#!/usr/bin/env python3
"""A small APNs provider, as a backend has one: aioapns with a real .p8 key and a real JWT.

Pointed at UNTerm instead of Apple by two class attributes (aioapns takes no host or port) and a
CA to trust; nothing else changes. Run it against `unterm run --apns-listen PORT SCRIPT`:

    python3 provider.py --port 8443 --ca "$(unterm apns ca | sed -n 1p)" \
        --key AuthKey_ABC123DEFG.p8 --key-id ABC123DEFG --team-id DEF567XYZA \
        --topic com.example.chat --token DEVICE_TOKEN

It prints one line per push: the apns-id and `200`, or the status and APNs's reason, and exits
1 if any push was refused.
"""

import argparse
import asyncio
import json
import ssl
import sys
from uuid import uuid4

from aioapns import APNs, NotificationRequest, PushType
from aioapns.connection import APNsDevelopmentClientProtocol, APNsTLSClientProtocol


def parse() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--ca", required=True, help="the CA `unterm apns ca` prints")
    p.add_argument("--key", required=True, help="the .p8 key")
    p.add_argument("--key-id", required=True)
    p.add_argument("--team-id", required=True)
    p.add_argument("--topic", required=True)
    p.add_argument("--token", required=True, help="the device token (unterm center tokens, or --device-token)")
    p.add_argument("--push-type", default="alert")
    p.add_argument("--payload", default='{"aps":{"alert":{"title":"Order shipped","body":"Your parcel is on its way"}}}')
    p.add_argument("--count", type=int, default=1)
    return p.parse_args()


async def main() -> int:
    args = parse()
    # Where aioapns connects: UNTerm instead of api.development.push.apple.com:443.
    APNsDevelopmentClientProtocol.APNS_SERVER = args.host
    APNsTLSClientProtocol.APNS_PORT = args.port
    with open(args.key) as f:
        key = f.read()
    apns = APNs(
        key=key,
        key_id=args.key_id,
        team_id=args.team_id,
        topic=args.topic,
        use_sandbox=True,
        ssl_context=ssl.create_default_context(cafile=args.ca),
    )
    refused = 0
    for _ in range(args.count):
        request = NotificationRequest(
            device_token=args.token,
            message=json.loads(args.payload),
            notification_id=str(uuid4()),
            push_type=PushType(args.push_type),
        )
        result = await apns.send_notification(request)
        if result.is_successful:
            print(f"{result.notification_id} 200")
        else:
            refused += 1
            print(f"{result.notification_id} {result.status} {result.description}")
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
