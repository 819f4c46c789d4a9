/** Absolute web and media addresses (docs/decisions.md Web addresses). */
export class Links {
  constructor(
    private readonly webBaseUrl: string,
    private readonly publicBaseUrl: string,
  ) {}

  post(id: number): string {
    return `${this.webBaseUrl}/posts/${id}`;
  }
  job(id: number): string {
    return `${this.webBaseUrl}/jobs/${id}`;
  }
  event(id: string): string {
    return `${this.webBaseUrl}/events/${id}`;
  }
  company(handle: string): string {
    return `${this.webBaseUrl}/companies/${handle}`;
  }
  profile(handle: string): string {
    return `${this.webBaseUrl}/profiles/${handle}`;
  }
  media(key: string): string {
    return `${this.publicBaseUrl}/media/${key}`;
  }
  /** Stored image references are media keys, or absolute URLs kept as they are. */
  image(keyOrUrl: string | null): string | null {
    if (keyOrUrl === null) return null;
    return /^https?:\/\//.test(keyOrUrl) ? keyOrUrl : this.media(keyOrUrl);
  }
}
