import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Header } from 'tar';
import { SandboxError } from '../../src/agent/sandbox/tool-sandbox.ts';
import {
  fingerprintWorkspace,
  packWorkspace,
  unpackWorkspace,
  type WorkspaceLimits,
} from '../../src/agent/sandbox/workspace-archive.ts';

/** A raw tar of regular files (node-tar's Header), gzip'd. */
function tarOf(files: { path: string; body: Buffer }[]): Buffer {
  const blocks = files.flatMap(({ path, body }) => {
    const header = Buffer.alloc(512);
    new Header({ path, type: 'File', size: body.length, mode: 0o644, mtime: new Date(0), uid: 0, gid: 0 }).encode(header, 0);
    return [header, body, Buffer.alloc((512 - (body.length % 512)) % 512)];
  });
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));
}

describe('workspace archives', () => {
  let root: string;
  const small: WorkspaceLimits = { archiveBytes: 64 * 1024, unpackedBytes: 256 * 1024, entries: 50 };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'hookgate-archive-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('packs and unpacks a workspace as it was, and its fingerprint changes with any change', async () => {
    const source = join(root, 'source');
    await mkdir(join(source, 'a', 'b'), { recursive: true });
    await writeFile(join(source, 'a', 'b', 'c.txt'), 'deep');
    await writeFile(join(source, 'top.sh'), '#!/bin/sh\n', { mode: 0o755 });
    const before = await fingerprintWorkspace(source);
    const target = join(root, 'target');
    await unpackWorkspace(target, Readable.from([await packWorkspace(source, small)]), small);
    expect(await readFile(join(target, 'a', 'b', 'c.txt'), 'utf8')).toBe('deep');
    expect((await fingerprintWorkspace(target)).bytes).toBe(before.bytes);
    await writeFile(join(source, 'top.sh'), '#!/bin/sh\necho\n');
    expect((await fingerprintWorkspace(source)).hash).not.toBe(before.hash);
  });

  it('refuses to pack a workspace over its caps (files, entries), saying what to do', async () => {
    const big = join(root, 'big');
    await mkdir(big, { recursive: true });
    await writeFile(join(big, 'zeros'), Buffer.alloc(300 * 1024));
    await expect(packWorkspace(big, small)).rejects.toThrow(/too big to keep.*delete files/);
    const many = join(root, 'many');
    await mkdir(many, { recursive: true });
    for (let i = 0; i < 60; i++) await writeFile(join(many, `f${i}`), '');
    await expect(packWorkspace(many, small)).rejects.toBeInstanceOf(SandboxError);
    // Random bytes do not compress: over the archive cap while under the files cap.
    const noisy = join(root, 'noisy');
    await mkdir(noisy, { recursive: true });
    await writeFile(join(noisy, 'noise'), Buffer.from(Array.from({ length: 100 * 1024 }, () => Math.floor(Math.random() * 256))));
    await expect(packWorkspace(noisy, small)).rejects.toThrow(/archive is over/);
  });

  it('stops unpacking a gzip bomb, an oversized archive or too many entries at the cap, and leaves the workspace empty', async () => {
    const target = join(root, 'bombed');
    const bomb = tarOf([{ path: 'zeros', body: Buffer.alloc(2 * 1024 * 1024) }]);
    expect(bomb.length).toBeLessThan(small.archiveBytes); // small compressed, huge unpacked
    await expect(unpackWorkspace(target, Readable.from([bomb]), small)).rejects.toThrow(/unpacks to over/);
    expect(await readdir(target)).toEqual([]);
    const oversized = Buffer.concat([tarOf([{ path: 'x', body: Buffer.from('x') }]), Buffer.alloc(small.archiveBytes)]);
    await expect(unpackWorkspace(target, Readable.from([oversized]), small)).rejects.toThrow(/archive is over/);
    const crowded = tarOf(Array.from({ length: 60 }, (_, i) => ({ path: `f${i}`, body: Buffer.from('') })));
    await expect(unpackWorkspace(target, Readable.from([crowded]), small)).rejects.toThrow(/entries/);
    expect(await readdir(target)).toEqual([]);
    await expect(unpackWorkspace(target, Readable.from([Buffer.from('not a gzip stream')]), small)).rejects.toThrow(
      /could not be unpacked/,
    );
    expect(await readdir(target)).toEqual([]);
  });
});
