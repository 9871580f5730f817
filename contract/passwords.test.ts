import { ZxcvbnFactory } from '@zxcvbn-ts/core'
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common'
import { describe, expect, it } from 'vitest'
import {
  PASSWORD_MESSAGES,
  passwordEstimator,
  passwordMessage,
  passwordProblem,
  personalWords,
} from './passwords'

const estimate = passwordEstimator({ ZxcvbnFactory, dictionary, adjacencyGraphs })
const bea = { name: 'Bea Buyer', email: 'bea.buyer@example.test' }

describe('the password rule', () => {
  it('keeps the seed: required, then 6 characters at least with its message word for word', () => {
    expect(passwordMessage('', bea, estimate)).toBe('Password is required')
    expect(passwordMessage('x7#Qp', bea, estimate)).toBe('Password must be 6 character or longer')
    expect(passwordProblem('x7#Qpz', bea, estimate)).toBeNull()
  })

  it('takes up to 128 characters and says so beyond', () => {
    const long = 'Vq8#tLm2wZ'.repeat(13)
    expect(passwordProblem(long.slice(0, 128), bea, estimate)).toBeNull()
    expect(passwordMessage(long.slice(0, 129), bea, estimate)).toBe('Keep the password under 128 characters')
  })

  it.each([
    '123456',
    'abcdef',
    'password',
    '111111',
    'qwerty',
    'P@ssw0rd',
    'Password1!',
    'sunshine99',
    'iloveyou2',
  ])('refuses %s as one of the most common passwords, saying why', (password) => {
    expect(passwordProblem(password, bea, estimate)).toBe('common')
    expect(PASSWORD_MESSAGES.common).toMatch(/most common/)
  })

  it.each(['BeaBuyer2024', 'bea.buyer', 'bea.buyer@example.test', 'Buyer123!'])(
    'refuses %s as built from the name or email',
    (password) => {
      expect(passwordProblem(password, bea, estimate)).toBe('personal')
    },
  )

  it.each(['LaptopMarket!', 'laptopmarket', 'Laptop-Market1'])(
    "refuses %s as built from the site's name",
    (password) => {
      expect(passwordProblem(password, bea, estimate)).toBe('product')
    },
  )

  it.each(['qmzpxk', 'Tr0ub4dor&3', 'correct horse battery', 'Bea loves quiet green valleys'])(
    'takes %s',
    (password) => {
      expect(passwordProblem(password, bea, estimate)).toBeNull()
    },
  )

  it('reads the name and the email in parts, leaving out bits too short to mean anything', () => {
    expect(personalWords({ name: 'Al Smith-Jones', email: 'al.smith+x@example.test' })).toEqual([
      'al smith-jones',
      'smith',
      'jones',
      'al.smith+x@example.test',
      'al.smith+x',
    ])
  })
})
