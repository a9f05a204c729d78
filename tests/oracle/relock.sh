#!/usr/bin/env bash
# Rewrites package-lock.json after a version in package.json moved, so that `npm ci` (which
# .ci/run uses) accepts it: npm records every optional dependency a package names, also the
# platform builds the registry does not have (oh-my-pi's pi-natives names six platforms and
# publishes fewer), and `npm ci` then refuses the lock as out of sync. This keeps only the
# optional dependencies that npm could resolve.
set -euo pipefail
cd "$(dirname "$0")"
npm install --package-lock-only --no-audit --no-fund
python3 - <<'PY'
import json

path = "package-lock.json"
lock = json.load(open(path))
packages = lock["packages"]
resolved = {k.rsplit("node_modules/", 1)[-1] for k in packages if k}
for entry in packages.values():
    optional = entry.get("optionalDependencies")
    if optional:
        entry["optionalDependencies"] = {n: v for n, v in optional.items() if n in resolved}
        if not entry["optionalDependencies"]:
            del entry["optionalDependencies"]
with open(path, "w") as f:
    json.dump(lock, f, indent=2)
    f.write("\n")
PY
npm ci --no-audit --no-fund
