import { describe, expect, it } from 'vitest'
import { paramSchema } from './filter-schemas'
import { FILTER_KEYS, filterOf, readParam } from './filters'

// The page reads a filter's parameter with `readParam`, the API with the schema built from the same declaration:
// for every declared filter and every value here, both take it to the same value, or both refuse it.
const VALUES = [
  '',
  ' ',
  ',',
  '0',
  '1',
  '7',
  '8',
  ' 13 ',
  '16',
  '21',
  '22',
  '80',
  '100',
  '101',
  '512',
  '1024',
  '65536',
  '65537',
  '3650',
  '3651',
  '-1',
  '8.5',
  '799.5',
  '1e3',
  '0x10',
  '1000000',
  '1000001',
  'Infinity',
  'NaN',
  'abc',
  '16,32',
  '16, ,32',
  '8,16,32,64,128,256,512,1024,8,16,32,64,128,256,512,1024,8,16,32,64,128',
  'Good',
  'good',
  'Fair,Good',
  'Excellent,Good,Fair,Good',
  'Mint',
  'compact',
  'large,compact',
  'huge',
  'amd-ryzen-7',
  'apple-m,intel-core-i5',
  'pentium',
  '0b8f3c6e-7a52-4f4e-9d0a-2a1c5b7e9f10',
  '0B8F3C6E-7A52-4F4E-9D0A-2A1C5B7E9F10',
  '0b8f3c6e-7a52-0f4e-9d0a-2a1c5b7e9f10',
  '0b8f3c6e-7a52-4f4e-9d0a-2a1c5b7e9f10,nope',
  '00000000-0000-0000-0000-000000000000',
  'nope',
]

describe('a filter parameter read by the page and by the API', () => {
  for (const key of FILTER_KEYS) {
    it(`${key}: the same value or the same refusal`, () => {
      const param = filterOf(key).param
      const schema = paramSchema(param)
      for (const raw of VALUES) {
        const api = schema.safeParse(raw)
        expect([raw, readParam(param, raw)]).toEqual([raw, api.success ? api.data : undefined])
      }
      // Repeated parameters (`ram=8&ram=16`) arrive as a list.
      const repeated = ['16', '8', '']
      const api = schema.safeParse(repeated)
      if (param.kind === 'list')
        expect(readParam(param, repeated)).toEqual(api.success ? api.data : undefined)
    })
  }
})
