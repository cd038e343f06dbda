/**
 * The export frame's own encoder (src/runtime/capture-encoding.ts): each captured picture goes to a WebCodecs
 * `VideoEncoder` here, and each chunk to the host as it comes, with the alpha plane's chunk beside it when the
 * format keeps transparency (a second encoder, fed the alpha as the luma of a grey picture, as WebM stores it).
 */
import { gridMicroseconds, videoEncoderConfig, type CaptureEncoding } from '../../capture-encoding.js';
import { Message, type EncodedChunkMessage, type SendToHost } from '../../protocol/messages.js';

/** Pictures queued in an encoder before the next waits: the encoder stays busy, memory stays bounded. */
const MAX_QUEUED = 2;

interface ColorChunk {
  readonly index: number;
  readonly key: boolean;
  readonly data: ArrayBuffer;
  readonly decoderConfig: EncodedChunkMessage['decoderConfig'];
}

export class FrameEncoder {
  readonly #color: VideoEncoder;
  readonly #alpha: VideoEncoder | undefined;
  /** Color chunks waiting for their alpha chunk, in output order. */
  readonly #waiting: ColorChunk[] = [];
  readonly #alphaChunks = new Map<number, ArrayBuffer>();
  #failure: Error | undefined;

  /** An encoder of `encoding` at this size, or `undefined` where the frame has none that takes it. */
  static async open(
    encoding: CaptureEncoding,
    size: { readonly width: number; readonly height: number },
    send: SendToHost,
  ): Promise<FrameEncoder | undefined> {
    if (typeof VideoEncoder === 'undefined') return undefined;
    const config = videoEncoderConfig(encoding, size.width, size.height);
    const supported = await VideoEncoder.isConfigSupported(config).catch(() => undefined);
    if (supported?.supported !== true) return undefined;
    return new FrameEncoder(encoding, config, send);
  }

  private constructor(
    private readonly encoding: CaptureEncoding,
    config: VideoEncoderConfig,
    private readonly send: SendToHost,
  ) {
    const error = (error: DOMException) => (this.#failure ??= error);
    this.#color = new VideoEncoder({ output: (chunk, meta) => this.#colorOutput(chunk, meta), error });
    this.#color.configure(config);
    if (encoding.alpha) {
      this.#alpha = new VideoEncoder({ output: (chunk) => this.#alphaOutput(chunk), error });
      this.#alpha.configure(config);
    }
  }

  /** Encodes frame `index` (RGBA, not premultiplied); resolves once the encoders can take the next. */
  async encode(picture: ImageData, index: number): Promise<void> {
    this.#check();
    const { width, height } = picture;
    const time = gridMicroseconds(index, this.encoding.fps);
    const options = { keyFrame: index % this.encoding.keyFrameEvery === 0 };
    const color = new VideoFrame(picture.data, { format: 'RGBA', codedWidth: width, codedHeight: height, ...time });
    try {
      this.#color.encode(color, options);
    } finally {
      color.close();
    }
    if (this.#alpha) {
      const alpha = new VideoFrame(alphaAsLuma(picture), {
        format: 'I420',
        codedWidth: width,
        codedHeight: height,
        ...time,
      });
      try {
        this.#alpha.encode(alpha, options);
      } finally {
        alpha.close();
      }
    }
    await Promise.all([roomIn(this.#color), this.#alpha && roomIn(this.#alpha)]);
    this.#check();
  }

  /** Encodes what the encoders still hold and sends it. */
  async flush(): Promise<void> {
    this.#check();
    await Promise.all([this.#color.flush(), this.#alpha?.flush()]);
    this.#check();
  }

  close(): void {
    for (const encoder of [this.#color, this.#alpha]) if (encoder && encoder.state !== 'closed') encoder.close();
  }

  #check(): void {
    if (this.#failure) throw this.#failure;
  }

  #indexOf(chunk: EncodedVideoChunk): number {
    return Math.round((chunk.timestamp * this.encoding.fps) / 1e6);
  }

  #colorOutput(chunk: EncodedVideoChunk, meta?: EncodedVideoChunkMetadata): void {
    const data = new ArrayBuffer(chunk.byteLength);
    chunk.copyTo(data);
    const decoder = meta?.decoderConfig;
    const decoderConfig = decoder && {
      codec: decoder.codec,
      codedWidth: decoder.codedWidth ?? 0,
      codedHeight: decoder.codedHeight ?? 0,
      ...(decoder.description ? { description: copied(decoder.description) } : {}),
      ...(decoder.colorSpace ? { colorSpace: { ...decoder.colorSpace } } : {}),
    };
    this.#waiting.push({ index: this.#indexOf(chunk), key: chunk.type === 'key', data, decoderConfig });
    this.#sendReady();
  }

  #alphaOutput(chunk: EncodedVideoChunk): void {
    const data = new ArrayBuffer(chunk.byteLength);
    chunk.copyTo(data);
    this.#alphaChunks.set(this.#indexOf(chunk), data);
    this.#sendReady();
  }

  /** Sends the color chunks whose alpha chunk came (all, without alpha), in output order. */
  #sendReady(): void {
    while (this.#waiting.length) {
      const { index, key, data, decoderConfig } = this.#waiting[0]!;
      const alpha = this.#alphaChunks.get(index);
      if (this.#alpha && !alpha) return;
      this.#waiting.shift();
      this.#alphaChunks.delete(index);
      const message: EncodedChunkMessage = {
        type: Message.encodedChunk,
        index,
        key,
        data,
        ...(alpha ? { alpha } : {}),
        ...(decoderConfig ? { decoderConfig } : {}),
      };
      this.send(message, [data, ...(alpha ? [alpha] : [])]);
    }
  }
}

/** The picture's alpha as the luma of an I420 picture with neutral chroma: what the alpha encoder compresses. */
function alphaAsLuma({ data, width, height }: ImageData): Uint8Array {
  const lumaSize = width * height;
  const chromaSize = Math.ceil(width / 2) * Math.ceil(height / 2);
  const planes = new Uint8Array(lumaSize + 2 * chromaSize);
  for (let pixel = 0; pixel < lumaSize; pixel++) planes[pixel] = data[pixel * 4 + 3]!;
  planes.fill(128, lumaSize);
  return planes;
}

function copied(source: AllowSharedBufferSource): ArrayBuffer {
  const view = ArrayBuffer.isView(source)
    ? new Uint8Array(source.buffer, source.byteOffset, source.byteLength)
    : new Uint8Array(source);
  return view.slice().buffer;
}

/** Resolves once `encoder` holds fewer than {@link MAX_QUEUED} pictures. */
function roomIn(encoder: VideoEncoder): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (encoder.encodeQueueSize < MAX_QUEUED || encoder.state !== 'configured') {
        encoder.removeEventListener('dequeue', check);
        resolve();
      }
    };
    encoder.addEventListener('dequeue', check);
    check();
  });
}
