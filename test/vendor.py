#!/usr/bin/env python3
"""test/vendor.py - the third-party source archives of test/vendor.lock:
their identity, and their download.

  python3 test/vendor.py id ARCHIVE
      prints the archive's sha256, commit id and content hash
  python3 test/vendor.py check ARCHIVE NAME
      whether ARCHIVE is the NAME of test/vendor.lock: the same sha256,
      or else the same commit id and content hash (an upstream download,
      compressed differently); exit 1 saying why not
  python3 test/vendor.py fetch NAME DIR
      downloads NAME from its URL in test/vendor.lock into DIR/NAME,
      checked as above; nothing is left in DIR unless it passed.  The
      scheme and host of the URL are replaced by UID_VENDOR_URL where it
      is set (a mirror laid out as upstream is).  Exit 1 saying why not.

The commit id is what `git get-tar-commit-id` reads: the comment of the
pax global header that `git archive` writes (GitHub's release archives
are made by it too).  The content hash: the sha256 of the lines
    PATH NUL KIND NUL DIGEST LF
one per regular file and symbolic link of the archive, sorted bytewise;
PATH is the member's name with the archive's one top-level directory
taken off, KIND is "f" (a file), "x" (a file its owner may execute) or "l"
(a symbolic link), DIGEST the hex sha256 of the file's bytes or of the
link's target.  Directories, owners, times and every other mode bit are
left out, so that two archives of the same tree hash alike whatever made
them.
"""
import fcntl
import hashlib
import os
import re
import sys
import tarfile
import time
import urllib.request

LOCK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vendor.lock")
FIELDS = ("archive", "name", "version", "tag", "commit", "url", "sha256", "content")
# every wait is bounded: a connection and each read (s), the whole
# download (s), and the wait for another process's download of the same
# archive (s)
SOCKET_TIMEOUT = 15
DOWNLOAD_TIMEOUT = 600
LOCK_TIMEOUT = 900


class Refused(Exception):
    pass


def lock_entries(path=LOCK):
    """The entries of test/vendor.lock, by archive name."""
    entries = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            words = line.split()
            if len(words) != len(FIELDS):
                raise Refused("%s: a line of %d fields, not %d: %s" % (path, len(words), len(FIELDS), line))
            e = dict(zip(FIELDS, words))
            entries[e["archive"]] = e
    return entries


def file_sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def archive_id(path):
    """(commit id or None, content hash) of a tar archive."""
    try:
        with tarfile.open(path, "r:*") as t:
            commit = t.pax_headers.get("comment")
            lines = []
            tops = set()
            for m in t:
                top, _, rel = m.name.partition("/")
                tops.add(top)
                if m.isdir():
                    continue
                if not rel:
                    raise Refused("%s is not inside the archive's top-level directory" % m.name)
                if m.isreg():
                    kind = b"x" if m.mode & 0o100 else b"f"
                    h = hashlib.sha256()
                    f = t.extractfile(m)
                    for block in iter(lambda: f.read(1 << 20), b""):
                        h.update(block)
                    digest = h.hexdigest()
                elif m.issym():
                    kind = b"l"
                    digest = hashlib.sha256(m.linkname.encode("utf-8", "surrogateescape")).hexdigest()
                else:
                    raise Refused("%s: a member of another kind than file, directory or symbolic link" % m.name)
                lines.append(rel.encode("utf-8", "surrogateescape") + b"\0" + kind + b"\0" + digest.encode() + b"\n")
    except (tarfile.TarError, EOFError, OSError) as e:
        raise Refused("not a readable tar archive (%s)" % e)
    if len(tops) != 1:
        raise Refused("%d top-level entries, not one directory" % len(tops))
    if commit is not None and not re.fullmatch(r"[0-9a-f]{40}", commit):
        commit = None
    return commit, hashlib.sha256(b"".join(sorted(lines))).hexdigest()


def check(path, entry):
    """None when path is the lock's entry, else why not (Refused)."""
    sha = file_sha256(path)
    if sha == entry["sha256"]:
        return "sha256 %s" % sha
    commit, content = archive_id(path)
    if commit != entry["commit"]:
        raise Refused("its commit id is %s, not %s (%s)" % (commit or "missing", entry["commit"], entry["tag"]))
    if content != entry["content"]:
        raise Refused("its content hash is %s, not %s: it is not %s's tree" % (content, entry["content"], entry["tag"]))
    return "commit %s and content %s" % (commit, content)


def source_url(entry):
    base = os.environ.get("UID_VENDOR_URL", "")
    url = entry["url"]
    if base:
        url = re.sub(r"^[a-z]+://[^/]+", base.rstrip("/"), url)
    return url


def fetch(entry, directory):
    """Downloads entry into directory, checked; returns (path, how)."""
    os.makedirs(directory, exist_ok=True)
    dest = os.path.join(directory, entry["archive"])
    # one download of an archive at a time; the others wait, bounded, and
    # find it there
    with open(os.path.join(directory, ".lock"), "w") as lk:
        deadline = time.monotonic() + LOCK_TIMEOUT
        while True:
            try:
                fcntl.flock(lk, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise Refused("another download into %s held its lock for %d s" % (directory, LOCK_TIMEOUT))
                time.sleep(1)
        if os.path.exists(dest):
            return dest, "downloaded before, " + check(dest, entry)
        url = source_url(entry)
        part = "%s.part.%d" % (dest, os.getpid())
        try:
            start = time.monotonic()
            try:
                with urllib.request.urlopen(url, timeout=SOCKET_TIMEOUT) as r, open(part, "wb") as out:
                    for block in iter(lambda: r.read(1 << 16), b""):
                        out.write(block)
                        if time.monotonic() - start > DOWNLOAD_TIMEOUT:
                            raise Refused("the download from %s took over %d s" % (url, DOWNLOAD_TIMEOUT))
            except (OSError, ValueError) as e:
                raise Refused("could not download %s (%s)" % (url, e))
            try:
                how = check(part, entry)
            except Refused as e:
                raise Refused("the download from %s is refused: %s" % (url, e))
            os.rename(part, dest)
            return dest, "downloaded from %s, %s" % (url, how)
        finally:
            if os.path.exists(part):
                os.unlink(part)


def main(argv):
    try:
        if len(argv) == 3 and argv[1] == "id":
            commit, content = archive_id(argv[2])
            print("sha256 %s\ncommit %s\ncontent %s" % (file_sha256(argv[2]), commit, content))
            return 0
        if len(argv) in (4, 5) and argv[1] in ("check", "fetch"):
            entries = lock_entries(argv[4] if len(argv) == 5 else LOCK)
            name = argv[3] if argv[1] == "check" else argv[2]
            if name not in entries:
                raise Refused("%s is not in test/vendor.lock" % name)
            if argv[1] == "check":
                print("%s: %s" % (name, check(argv[2], entries[name])))
            else:
                path, how = fetch(entries[name], argv[3])
                print(path)
                print("%s: %s" % (name, how), file=sys.stderr)
            return 0
    except Refused as e:
        print("%s" % e, file=sys.stderr)
        return 1
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
