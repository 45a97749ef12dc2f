#!/usr/bin/env python3
"""Check the relative links of the project's Markdown files.

usage: md-links.py [DIR]

For every [text](target) and [text]: target in every *.md file under DIR (default: the
checkout this script is in; in a git checkout, the files git tracks and the untracked ones
it does not ignore; not those under a tests/ directory, which are test data), outside
code spans and fenced code blocks: a relative TARGET must
name a file or directory that exists, and a #ANCHOR (on another Markdown file, or alone:
this file) must be the slug of one of that file's headings, made as GitHub makes them
(lower case; everything but letters, digits, spaces, '-' and '_' dropped; spaces to '-';
a repeated slug gets -1, -2, ...), or an <a name="..."> or id="..." in it. Links with a
scheme (https:, mailto:) are not checked.

Prints FILE:LINE: what for each broken link and exits 1; 0 when all resolve (it says how
many it checked); 2 on a usage error.
"""
import os
import re
import subprocess
import sys

LINK = re.compile(r'(?<!\\)\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
REFDEF = re.compile(r'^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$')
HEADING = re.compile(r'^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$')
HTML_ANCHOR = re.compile(r'<a\s+[^>]*(?:name|id)="([^"]+)"|\sid="([^"]+)"')
FENCE = re.compile(r'^\s{0,3}(```+|~~~+)')


def strip_code(line):
    """The line without its code spans (so a `[x](y)` in backticks is no link)."""
    return re.sub(r'(`+)(.+?)\1', '', line)


def slug(text):
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', text)  # a link: its text
    text = re.sub(r'<[^>]+>', '', text)                       # HTML tags
    text = text.replace('`', '').strip().lower()
    text = re.sub(r'[^\w\- ]', '', text)                      # \w: letters, digits, _
    return text.replace(' ', '-')


def lines_outside_fences(path):
    fence = None
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            m = FENCE.match(line)
            if m:
                mark = m.group(1)[0] * 3
                if fence is None:
                    fence = mark
                elif mark == fence:
                    fence = None
                continue
            if fence is None:
                yield n, line.rstrip('\n')


anchors_cache = {}


def anchors(path):
    if path not in anchors_cache:
        seen = {}
        found = set()
        for _, line in lines_outside_fences(path):
            m = HEADING.match(line)
            if m:
                s = slug(m.group(2))
                k = seen.get(s, 0)
                seen[s] = k + 1
                found.add(s if k == 0 else '%s-%d' % (s, k))
            for a, b in HTML_ANCHOR.findall(line):
                found.add(a or b)
        anchors_cache[path] = found
    return anchors_cache[path]


def is_test_data(name):
    return 'tests' in name.split(os.sep)[:-1]


def markdown_files(root):
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files', '-z', '--cached', '--others',
                              '--exclude-standard', '--', '*.md'],
                             capture_output=True, check=True).stdout
        names = [n for n in out.decode().split('\0') if n and not is_test_data(n)]
        return sorted(os.path.join(root, n) for n in names
                      if os.path.isfile(os.path.join(root, n)))
    except (OSError, subprocess.CalledProcessError):
        found = []
        for d, _, files in os.walk(root):
            found += [os.path.join(d, f) for f in files if f.endswith('.md')
                      and not is_test_data(os.path.relpath(os.path.join(d, f), root))]
        return sorted(found)


def check(path, root):
    bad = []
    n_links = 0
    for n, line in lines_outside_fences(path):
        text = strip_code(line)
        targets = LINK.findall(text)
        m = REFDEF.match(text)
        if m:
            targets.append(m.group(1))
        for target in targets:
            if re.match(r'^[a-zA-Z][a-zA-Z0-9+.-]*:', target):
                continue
            n_links += 1
            file_part, _, anchor = target.partition('#')
            if file_part:
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
                if not os.path.exists(dest):
                    bad.append('%s:%d: %s: no such file' % (os.path.relpath(path, root), n,
                                                            target))
                    continue
            else:
                dest = path
            if anchor and dest.endswith('.md') and os.path.isfile(dest):
                if anchor not in anchors(dest):
                    bad.append('%s:%d: %s: no heading #%s in %s' %
                               (os.path.relpath(path, root), n, target, anchor,
                                os.path.relpath(dest, root)))
    return n_links, bad


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith('-')):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else os.path.join(os.path.dirname(
        os.path.abspath(__file__)), '..', '..')
    root = os.path.abspath(root)
    if not os.path.isdir(root):
        print('md-links.py: %s: not a directory' % root, file=sys.stderr)
        return 2
    total = 0
    bad = []
    files = markdown_files(root)
    for path in files:
        n, b = check(path, root)
        total += n
        bad += b
    for line in bad:
        print(line)
    if bad:
        print('md-links.py: %d of %d relative links in %d Markdown files do not resolve'
              % (len(bad), total, len(files)))
        return 1
    print('md-links.py: %d relative links in %d Markdown files resolve' % (total, len(files)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
