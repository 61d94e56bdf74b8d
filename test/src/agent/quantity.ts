// What kubelet puts in a resourceFieldRef env var: the quantity divided by the divisor, rounded up.
import { quantityValue } from '@zk-oam/apis';

export function divideQuantity(quantity: string, divisor: string | undefined): string {
  const divided = quantityValue(quantity) / quantityValue(divisor ?? '1');
  return String(Math.ceil(divided - 1e-9));
}
