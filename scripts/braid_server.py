"""braid-server for the benchmark scripts: started on a free port of
127.0.0.1 with its database in a data folder, the port read from the line
it prints when it is up."""
import os
import subprocess
import urllib.parse


def start(binary, data, token, env=None):
    """The server's process and port; `env` is added to the environment."""
    full = dict(os.environ, BRAID_SERVER_TOKEN=token, BRAID_NO_KEYCHAIN="1", **(env or {}))
    args = [binary, "--bind", "127.0.0.1:0", "--db", os.path.join(data, "braid.db")]
    p = subprocess.Popen(args, env=full, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=data)
    for line in p.stdout:
        if "running at" in line:
            return p, urllib.parse.urlparse(line.split("running at", 1)[1].strip()).port
    p.wait()
    raise RuntimeError("braid-server did not start")
