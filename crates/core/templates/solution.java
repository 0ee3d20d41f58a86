// {{problem}}: {{title}}
// Judge it with `judge run {{name}}`; `judge show {{problem}}` shows the statement.
import java.io.*;
import java.util.*;

public class Main {
    public static void main(String[] args) throws IOException {
        // A BufferedReader and a StringTokenizer: Scanner is too slow for big inputs.
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer tokens = new StringTokenizer("");
        // Everything printed goes through one buffer, flushed once at the end.
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));

        while (!tokens.hasMoreTokens()) tokens = new StringTokenizer(in.readLine());
        long n = Long.parseLong(tokens.nextToken());
        long answer = n;
        out.println(answer);

        out.flush();
    }
}
