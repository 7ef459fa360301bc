"""Runs a command in a pseudo-terminal and answers its prompts, as a person at a terminal would.

Reads JSON on stdin: {"argv": [...], "env": {...}, "steps": [[regex, text to type], ...], "timeout": seconds,
"size": [columns, rows] (optional: the terminal's size, else the pty's default)}.
Prints JSON: {"code": exit status (128 + signal when killed), "transcript": everything shown, ANSI removed,
"escapes": how many ESC bytes the program wrote}.
"""
import fcntl, json, os, pty, re, select, struct, sys, termios, time

ANSI = re.compile(rb'\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-B]|\x1b[=>78]|\r')


def main():
    spec = json.load(sys.stdin)
    pid, fd = pty.fork()
    if pid == 0:
        if spec.get('size'):
            columns, rows = spec['size']
            fcntl.ioctl(sys.stdout.fileno(), termios.TIOCSWINSZ, struct.pack('HHHH', rows, columns, 0, 0))
        os.execvpe(spec['argv'][0], spec['argv'], spec['env'])
    timeout = spec.get('timeout', 20)
    seen = b''
    pending = b''
    failure = None

    def read(wait):
        nonlocal seen, pending
        ready, _, _ = select.select([fd], [], [], wait)
        if not ready:
            return True
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            return False
        if not chunk:
            return False
        seen += chunk
        pending += chunk
        return True

    for pattern, text in spec['steps']:
        deadline = time.time() + timeout
        regex = re.compile(pattern.encode())
        while not regex.search(ANSI.sub(b'', pending)):
            if time.time() > deadline or not read(0.1):
                failure = 'no match for %r' % pattern
                break
        if failure:
            break
        pending = b''
        time.sleep(0.05)
        os.write(fd, text.encode())
    deadline = time.time() + timeout
    status = None
    while status is None:
        done, raw = os.waitpid(pid, os.WNOHANG)
        if done:
            status = raw
        elif failure or time.time() > deadline:
            failure = failure or 'the program did not exit'
            os.kill(pid, 9)
            _, status = os.waitpid(pid, 0)
        else:
            read(0.1)
    while read(0):
        pass
    code = os.waitstatus_to_exitcode(status)
    print(json.dumps({'code': code if code >= 0 else 128 - code, 'failure': failure,
                      'transcript': ANSI.sub(b'', seen).decode('utf-8', 'replace'), 'escapes': seen.count(b'\x1b')}))


main()
