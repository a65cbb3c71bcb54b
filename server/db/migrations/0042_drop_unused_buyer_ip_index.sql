-- No query reads sales by the buyer's address, so the reservation's write of it keeps no index up to date.
DROP INDEX "sales_buyer_ip_hold";
