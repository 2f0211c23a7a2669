/**
 * A merchant's customer (a payer, spec 2.4) as the rules see it: the taxpayer document in clear, in
 * memory only (the adapter stores it sealed). Optional fields absent when blank.
 */
export type Customer = {
  id: number;
  accountId: string;
  name: string;
  document: string;
  documentType: 'CPF' | 'CNPJ';
  email: string;
  zipcode?: string;
  countryId?: number;
  /** The state's UF, upper case. */
  state?: string;
  city?: string;
  district?: string;
  street?: string;
  number?: string;
  phone?: string;
  mobilephone?: string;
  createdAt: string;
};
