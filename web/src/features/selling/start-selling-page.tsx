import { zodResolver } from '@hookform/resolvers/zod'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { Link, useNavigate } from 'react-router'
import { paths } from '#contract/pages'
import { StartSelling } from '#contract/users'
import { Alert } from '../../components/ui/alert'
import { Button, buttonClasses } from '../../components/ui/button'
import { FormField } from '../../components/ui/form-field'
import { PageHeader } from '../../components/ui/page-header'
import { api, errorMessage } from '../../lib/api-client'
import { sessionKeys } from '../../lib/query-keys'
import { toast } from '../../lib/toast'
import { useSession } from '../auth'

type Form = { phone: string; accept_terms: boolean }

/**
 * `/dashboard/start-selling`: a buyer starts selling from the same account. Their orders, payments and messages stay;
 * from then on the dashboard has the seller's pages as well as My Orders.
 */
export function StartSellingPage() {
  const { user } = useSession()
  const client = useQueryClient()
  const navigate = useNavigate()
  const [formError, setFormError] = useState<string | null>(null)
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Form>({
    resolver: zodResolver(StartSelling) as never,
    defaultValues: { phone: '', accept_terms: false },
  })

  if (!user) return null
  if (user.role !== 'buyer') {
    return (
      <Alert title={user.role === 'seller' ? 'Your account sells already' : 'Admin accounts do not sell'}>
        {user.role === 'seller' ? (
          <Link to={paths.addProduct()} className={buttonClasses('primary', 'md')}>
            Add a Product
          </Link>
        ) : null}
      </Alert>
    )
  }

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null)
    try {
      await api.post<unknown>('/me/start-selling', { phone: values.phone, accept_terms: true })
    } catch (err) {
      setFormError(errorMessage(err, 'Could not start selling. Please try again.'))
      return
    }
    // Who the person is changed: the menu and the seller pages read the session again.
    await client.invalidateQueries({ queryKey: sessionKeys.me() })
    toast.success('You can sell from this account now')
    navigate(paths.addProduct())
  })

  return (
    <>
      <title>Start selling · Laptop Market</title>
      <PageHeader title="Start selling">
        <p>Sell from the account you buy with. Your orders, payments and messages stay as they are.</p>
      </PageHeader>
      <form
        noValidate
        onSubmit={onSubmit}
        aria-label="Start selling"
        className="max-w-xl space-y-5 rounded-xl border border-slate-200 bg-white p-5 sm:p-6"
      >
        <FormField
          label="Phone number"
          hint="Buyers who pay for your laptop see it, to arrange the handover. Nobody else does."
          error={errors.phone?.message}
        >
          <input {...register('phone')} type="tel" autoComplete="tel" />
        </FormField>
        <div>
          <label className="flex items-start gap-3 text-slate-800 text-sm">
            <input
              {...register('accept_terms')}
              type="checkbox"
              className="mt-0.5 size-5 shrink-0 accent-accent"
              aria-invalid={errors.accept_terms ? true : undefined}
            />
            <span>
              I accept the seller terms:{' '}
              <Link to="/terms" className="font-semibold text-accent hover:underline">
                listing a laptop
              </Link>{' '}
              honestly (its condition grade, its flaws, photos of the laptop itself), handing it over once
              paid, and the marketplace's fee, taken from the price when it sells.
            </span>
          </label>
          {errors.accept_terms ? (
            <p role="alert" className="mt-1 text-red-700 text-sm">
              {errors.accept_terms.message}
            </p>
          ) : null}
        </div>
        <Button type="submit" size="lg" disabled={isSubmitting}>
          {isSubmitting ? 'Starting…' : 'Start selling'}
        </Button>
        {formError ? (
          <p role="alert" className="text-red-700 text-sm">
            {formError}
          </p>
        ) : null}
      </form>
    </>
  )
}
