/** Characters Helvetica's WinAnsiEncoding writes as one byte; æ, ø, å and § are among them. */
function winAnsi(text: string): Buffer {
  const special: Record<string, number> = { '–': 0x96, '—': 0x97, '’': 0x92, '“': 0x93, '”': 0x94 }
  const bytes: number[] = []
  for (const char of text) {
    const code = char.codePointAt(0) as number
    if (special[char] !== undefined) bytes.push(special[char])
    else bytes.push(code <= 0xff ? code : 0x3f)
  }
  return Buffer.from(bytes)
}

/** A PDF string literal: `(`, `)` and `\` escaped. */
function literal(text: string): Buffer {
  const raw = winAnsi(text)
  const out: number[] = [0x28]
  for (const byte of raw) {
    if (byte === 0x28 || byte === 0x29 || byte === 0x5c) out.push(0x5c)
    out.push(byte)
  }
  out.push(0x29)
  return Buffer.from(out)
}

function wrap(paragraph: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of paragraph.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else {
      line = line ? `${line} ${word}` : word
    }
  }
  if (line) lines.push(line)
  return lines
}

/**
 * A real, small PDF 1.4 file: A4 pages in Helvetica (WinAnsiEncoding, so æ, ø, å and § are
 * single bytes as in many court PDFs), each paragraph wrapped at `width` characters and
 * followed by an empty line, with a cross-reference table PDF readers check. For tests of
 * PDF text extraction, which must not reach the internet for a real decision.
 *
 * @example
 * const bytes = buildTextPdf([['HØYESTERETTS DOM', '(1) Saken gjelder …'], ['(2) Side to.']])
 */
export function buildTextPdf(pages: string[][], width = 80): Buffer {
  const objects: Buffer[] = []
  const pageIds = pages.map((_, i) => 4 + i * 2)
  objects.push(Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'))
  objects.push(
    Buffer.from(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`),
  )
  objects.push(Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'))
  for (const [i, paragraphs] of pages.entries()) {
    const parts: Buffer[] = [Buffer.from('BT /F1 11 Tf 14 TL 56 780 Td\n')]
    for (const paragraph of paragraphs) {
      for (const line of wrap(paragraph, width)) parts.push(literal(line), Buffer.from(' Tj T*\n'))
      parts.push(Buffer.from('T*\n'))
    }
    parts.push(Buffer.from('ET\n'))
    const stream = Buffer.concat(parts)
    objects.push(
      Buffer.from(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[i]! + 1} 0 R >>`,
      ),
    )
    objects.push(
      Buffer.concat([Buffer.from(`<< /Length ${stream.length} >>\nstream\n`), stream, Buffer.from('endstream')]),
    )
  }
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')]
  let offset = chunks[0]!.length
  const offsets: number[] = []
  objects.forEach((body, i) => {
    const object = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')])
    offsets.push(offset)
    chunks.push(object)
    offset += object.length
  })
  const xref = [
    `xref\n0 ${objects.length + 1}\n`,
    '0000000000 65535 f \n',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
  ].join('')
  chunks.push(
    Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`),
  )
  return Buffer.concat(chunks)
}
