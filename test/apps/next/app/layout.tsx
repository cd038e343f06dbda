import type { Metadata } from 'next';
import type { ReactNode } from 'react';

// An empty icon: Chromium asks for /favicon.ico otherwise, and the proxy counts its 404.
export const metadata: Metadata = { title: 'fx in Next.js', icons: { icon: 'data:,' } };

export default function RootLayout({ children }: Readonly<{ children: ReactNode }>) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
