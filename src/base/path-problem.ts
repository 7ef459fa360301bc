// Ground floor (src/base): imports nothing of ours but src/domain.
// Why a file a flag names cannot be read or written, in words: Node reports `EISDIR: illegal operation
// on a directory, read`, which says neither which path nor what to do. Every reader and writer of a
// path the user gave (--file, --batch, --out, --token-file, --body, --secret-file) says it through here.
import { dirname } from 'node:path';

export type PathUse = 'read' | 'write';

/** The errno code of a system error, if it has one. */
const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** Node's own sentence without its code and syscall: "EIO: i/o error, read" -> "i/o error". */
const plainMessage = (error: unknown) =>
  String((error as Error | undefined)?.message ?? error).replace(/^[A-Z][A-Z0-9_]+: /, '').replace(/, \w+( '[^']*')?( -> '[^']*')?$/, '');

/** What each code means for a path, said after the path: "./charges is a folder, not a file". */
function meaning(code: string | undefined, path: string, use: PathUse): string | undefined {
  const verb = use === 'read' ? 'read' : 'written';
  switch (code) {
    case 'EISDIR':
      return `${path} is a folder, not a file`;
    case 'ENOENT':
      return use === 'read' ? `${path} does not exist` : `${path} cannot be written: the folder ${dirname(path)} does not exist`;
    case 'ENOTDIR':
      return `${path} cannot be ${verb}: a part of the path before the file name is a file, not a folder`;
    case 'EACCES':
    case 'EPERM':
      return `${path} cannot be ${verb}: permission denied`;
    case 'EMFILE':
    case 'ENFILE':
      return `${path} cannot be opened: too many files are open (raise the limit with ulimit -n)`;
    case 'ENOSPC':
      return `${path} cannot be written: the disk is full`;
    case 'EDQUOT':
      return `${path} cannot be written: the disk quota is used up`;
    case 'EROFS':
      return `${path} cannot be written: the file system is read-only`;
    case 'ENAMETOOLONG':
      return `${path} cannot be ${verb}: the name is too long`;
    case 'ELOOP':
      return `${path} cannot be ${verb}: too many symbolic links (one that points to itself?)`;
    case 'EBUSY':
    case 'ETXTBSY':
      return `${path} cannot be ${verb}: it is in use`;
    case 'EIO':
      return `${path} cannot be ${verb}: the device reported an input/output error`;
    default:
      return undefined;
  }
}

/**
 * "./charges is a folder, not a file", "out.ndjson cannot be written: the disk is full": why `path`
 * (`-`: stdin) cannot be read or written, from the error Node gave. An unknown code keeps Node's sentence.
 */
export function pathProblem(error: unknown, path: string, use: PathUse): string {
  const shown = path === '-' ? (use === 'read' ? 'stdin' : 'stdout') : path;
  return meaning(codeOf(error), shown, use) ?? `${shown} cannot be ${use === 'read' ? 'read' : 'written'}: ${plainMessage(error)}`;
}
