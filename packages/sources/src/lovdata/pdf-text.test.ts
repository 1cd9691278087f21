import { describe, expect, it } from 'vitest'
import { pdfText, PdfTextError } from './pdf-text.js'
import { buildTextPdf } from './testing/pdf-builder.js'

const paragraph = (n: number) =>
  `Avsnitt ${n}: Saken gjelder erstatning etter forvaltningsloven § 35 første ledd bokstav c, og spørsmålet er om vedtaket var ugyldig.`

describe('reading the text of a PDF', () => {
  it('keeps paragraphs and pages, and the letters æ, ø, å and §', async () => {
    const pages = [[paragraph(1), paragraph(2)], ['Høyesteretts dom, særlige grunner: § 5a'], [paragraph(3)]]
    expect(await pdfText(buildTextPdf(pages))).toBe(pages.flat().join('\n\n'))
  })

  it('says so when the file is not a PDF or cannot be read as one', async () => {
    await expect(pdfText(Buffer.from('<!DOCTYPE html><html></html>'))).rejects.toThrow(
      new PdfTextError('is not a PDF file'),
    )
    await expect(pdfText(Buffer.from('%PDF-1.4\nnothing else'))).rejects.toThrow(/could not be read as a PDF/)
    await expect(pdfText(buildTextPdf([[]]))).rejects.toThrow(/holds no text/)
  })

  it('gives the event loop a turn between pages, so a long decision holds up no other request', async () => {
    const pages = Array.from({ length: 40 }, (_, i) => [paragraph(i), paragraph(i + 1)])
    const pdf = buildTextPdf(pages)
    // Counts the event loop's turns while the text is read: one per page at least.
    let turns = 0
    let reading = true
    const count = () => {
      if (!reading) return
      turns++
      setImmediate(count)
    }
    setImmediate(count)
    const text = await pdfText(pdf)
    reading = false
    expect(text.split('\n\n')).toHaveLength(80)
    expect(turns).toBeGreaterThanOrEqual(40)
  })
})
