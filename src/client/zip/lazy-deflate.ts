import { AsyncZipDeflate, ZipDeflate, type AsyncFlateStreamHandler, type ZipInputFile } from 'fflate';

/** fflate's level 6, and the zip header flag it writes for it (`dbf` in fflate: 0 for levels 6 to 8). */
const DEFLATE = { level: 6 } as const;
const DEFLATE_FLAG = 0;
const METHOD_DEFLATE = 8;

/**
 * A deflated zip entry whose deflater (and, `inWorker`, its worker) is made when its first chunk comes. So every
 * entry can be added to the `Zip` at once, in archive order, and fed in any order, while only the entries being
 * fed hold a deflater's buffers or a worker.
 */
export class LazyDeflate implements ZipInputFile {
  readonly compression = METHOD_DEFLATE;
  readonly flag = DEFLATE_FLAG;
  crc = 0;
  size = 0;
  ondata: AsyncFlateStreamHandler | undefined;
  #deflater: ZipDeflate | AsyncZipDeflate | undefined;

  constructor(
    readonly filename: string,
    private readonly inWorker: boolean,
  ) {}

  push(chunk: Uint8Array, final: boolean): void {
    this.#deflater ??= this.#open();
    this.#deflater.push(chunk, final);
  }

  terminate(): void {
    if (this.#deflater instanceof AsyncZipDeflate) this.#deflater.terminate();
  }

  #open(): ZipDeflate | AsyncZipDeflate {
    const deflater = this.inWorker
      ? new AsyncZipDeflate(this.filename, DEFLATE)
      : new ZipDeflate(this.filename, DEFLATE);
    deflater.ondata = (error, chunk, final) => {
      // The zip reads the sizes and CRC from this entry when its last chunk comes.
      if (final) ({ crc: this.crc, size: this.size } = deflater);
      this.ondata!(error, chunk, final);
    };
    return deflater;
  }
}
