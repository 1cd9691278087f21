import iconv from 'iconv-lite'

/**
 * Innovasjon Norge's Tildelinger.csv in its real format: windows-1252, `;`, CRLF, comma
 * decimals with space thousands, `DD.MM.YYYY` and the older `DD.MM.YY`, organisation numbers
 * padded to 11 digits with `00`, a sole proprietorship without one, and a company name that
 * holds a quoted `;`.
 */
export function tildelingerCsv(): Buffer {
  const lines = [
    'Fylkesnavn;Kommunenavn;Org-nr;Bedriftsnavn;Virkemiddelkategori;Underkategori;Innvilget beløp;Innvilget dato;Beslutningsenhet;Næringshovedområde;Næring;Type finansiering',
    'Trøndelag;Trondheim;976030788;SESAM AS;Innovasjonskontrakter;IFU;1 000 000,00;15.03.2024;Trøndelag;Industri;Produksjon av maskiner;Tilskudd',
    'Trøndelag;Trondheim;00976030788;SESAM AS;Lån;Lavrisikolån;500 000,50;02.11.2019;Trøndelag;Industri;Produksjon av maskiner;Lån',
    'Trøndelag;Trondheim;976030788;SESAM AS;Etablerertilskudd;Markedsavklaring;75000;05.03.21;Trøndelag;Industri;Produksjon av maskiner;Tilskudd',
    'Vestland;Bergen;;Kari Nordmann ENK;Etablerertilskudd;Markedsavklaring;50 000,00;01.06.2022;Vestland;Tjenester;Rådgivning;Tilskudd',
    'Oslo;Oslo;912346234;"SESAM; HOLDING AS";Garantier;Byggelånsgaranti;2 500 000,00;30.09.2023;Oslo;Eiendom;Utleie;Garanti',
    // A record that cannot be read: an amount that is not a number. Counted and skipped.
    'Oslo;Oslo;912346234;SESAM HOLDING AS;Tilskudd;Forskning;ukjent;30.09.2023;Oslo;Eiendom;Utleie;Tilskudd',
  ]
  return iconv.encode(`${lines.join('\r\n')}\r\n`, 'win1252')
}
