// The test carrier's label: a one-page 4×6 in PDF that says plainly it is a test-mode label, not postage.
// Written by hand (a handful of PDF objects and Helvetica), so the test carrier needs no PDF library.

function pdfText(s: string) {
  // PDF's standard fonts take Latin-1; anything else becomes '?', and ( ) \ are escaped.
  return s.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`)
}

export function testLabelPdf(lines: string[]): Buffer {
  const width = 288
  const height = 432
  const text = [
    'BT /F1 20 Tf 18 396 Td (TEST MODE) Tj ET',
    'BT /F1 9 Tf 18 380 Td (Not a real label: no postage, no carrier will collect it.) Tj ET',
    '2 w 12 370 m 276 370 l S',
    ...lines.map((line, i) => `BT /F1 11 Tf 18 ${350 - i * 16} Td (${pdfText(line)}) Tj ET`),
  ].join('\n')
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>`,
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'))
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = Buffer.byteLength(out, 'latin1')
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}
